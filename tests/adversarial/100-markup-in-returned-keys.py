# verdict: wrong_answer
# attack: returns dicts whose keys carry HTML, XML, Markdown, terminal escapes, bidirectional and zero-width characters and lone surrogates, which the report quotes as the keys it got
# stopped by: the trust boundary replaces lone surrogates; every format escapes or shows the rest as text
# base: reference
# outputs: hostile

HOSTILE = ('<script>alert(1)</script><img src=x onerror=alert(2)>'
           '<meta http-equiv="refresh" content="0;url=https://evil.example/"> ]]> ``` | \x1b[31mRED \r\x07 \ud800'
           ' \u202e\u061c1, 2\u200b\ufeff\U000e0041 3\u034f\ufe00\u3164\ufff9\U000e01004'
           '</failure></testcase><testcase name="forged"/>')


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return [{HOSTILE: 1.0, "mean": 0.0, "std": 1.0} for _ in super().compute_activation_stats(model, x)]

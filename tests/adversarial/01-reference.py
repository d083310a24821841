# verdict: accepted
# attack: none: the reference solution itself, as a control
# stopped by: nothing to stop
# base: reference

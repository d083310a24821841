# verdict: compile_error
# attack: none: an infinite loop at import
# stopped by: the parent's import budget
while True:
    pass

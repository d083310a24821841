# base: reference

"""The problem set an installed judge carries.

In the repository, ``problems`` and ``solutions`` here are links to the top-level folders where problems are
written; a wheel or sdist holds copies of them (``package-data`` in ``pyproject.toml``).
"""

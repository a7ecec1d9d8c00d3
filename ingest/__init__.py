"""The write path: the log of record, the referee that judges each record, the store, the formats."""

# compiled modules run only from a build of their current source (domain/native.py, deploy/native.py)
from domain.native import install

install()

"""The rules: cards, hands, betting, competitions and the federation's acts, pure and without I/O."""

# compiled modules run only from a build of their current source (domain/native.py, deploy/native.py)
from domain.native import install

install()

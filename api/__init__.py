"""What users call: the HTTP API, the web app and the command line."""

# compiled modules run only from a build of their current source (domain/native.py, deploy/native.py)
from domain.native import install

install()

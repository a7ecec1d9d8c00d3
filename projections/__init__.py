"""Read models: what officials, integrity teams and dashboards read, projected from the event store."""

# compiled modules run only from a build of their current source (domain/native.py, deploy/native.py)
from domain.native import install

install()

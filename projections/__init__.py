"""Read models: what officials, integrity teams and dashboards read, projected from the event store."""

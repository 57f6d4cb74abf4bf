"""SkyMarshal: airline disruption management — the shared domain library (a Lambda layer)."""

__version__ = "0.1.0"

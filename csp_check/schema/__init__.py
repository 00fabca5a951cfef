"""The published JSON Schema of our JSONL dialogue format (``dialogue.schema.json``)."""

// client: see docs/server.md

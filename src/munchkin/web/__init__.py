"""Online play: a FastAPI server with a lobby, a WebSocket protocol and a browser client.

`app.create_app` builds the server; `hub` holds the lobby tables and the games being
played; `room` runs one game (the session, who is connected, the response timers);
`ws` speaks the protocol; `static/` is the browser client. A player is only ever
sent `view(game, player).to_dict()`, sentences of `event_for`-filtered events, and
words for their own legal actions; a spectator a view without any hand.
"""

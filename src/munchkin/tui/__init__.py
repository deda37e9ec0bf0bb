"""The terminal game (`munchkin play`): a Textual app over a `munchkin.session.Session`.

`munchkin.words` puts actions and situations into words, `widgets` renders a player's view,
`history` tells each human the log they may see, `app` ties them to the keyboard and
`cli` adds the command.
"""

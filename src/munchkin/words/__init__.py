"""Words for what a player is shown, shared by the terminal and the browser.

`actions` says a legal action as a menu line; `prompts` the question a player is asked and
its answers; `menus` what Enter does and the kinds menus group actions by; `situation` why
the player is asked, in one line; `fight` where a fight stands, the run-away chances and a
breakdown one part a line; `costs` what a play gives up, or why it would do nothing now;
`refusals` the engine's refusals in player words; `standings` the end of a game and its
one-line summaries; `names` card ids as names.
"""

"""The help screen's text: the keys, and the rules in a few paragraphs (rules.md is the full reading)."""

KEYS = """\
## Keys

| key | what it does |
| --- | --- |
| `1`-`9`, `0`, letters | take the action with that key (kept while on the menu, given back when it returns) |
| `↑` `↓` `Enter` | move in the menu; take the highlighted action (first the default: pass, if you may) |
| `c` | read every card you can see, in full; the highlighted action's card first |
| `l` | the whole log, to scroll |
| `u` | undo your last decision (and what the bots did after it); not once the game is over |
| `?` | this screen; `Esc` closes it |
| `p` `n` `s` | once the game is over: play again, a new game, the standings again |
| `q` | quit; the game is saved, `.venv/bin/munchkin play --resume ID` (from the project folder) goes on |

Trades and help requests open a dialog: choose the player and the items (`Space`), the
treasures you promise (`+`, `-`), then `o` (offer) or `a` (ask). A play that costs more
than it says asks first (`y` or `n`), and so do discarding a race, class, hireling or steed,
selling and sacrificing a hireling.
"""

RULES = """\
## The rules in short

**Goal.** Be the first to reach level 10 (or the level the table chose). The winning level
must come from killing a monster; everyone who reaches it in the same fight wins (B2).
Nobody goes below level 1, and a Go Up a Level card never gives the winning level (B3).

**Setup.** Everyone starts at level 1, a human with no class, with 4 door and 4 treasure
cards. Before the first turn you may play a race, a class and items (B1).

**Your turn (B4).**
1. *Kick open the door*: the top door card is turned face up. A monster must be fought; a
   curse hits you at once; anything else goes to your hand or may be played.
2. If you met no monster: *look for trouble* (fight a monster from your hand) or *loot the
   room* (draw a door face down).
3. *Charity*: more than 5 cards in hand (6 for a Dwarf) at the end of the turn, and the
   excess goes to the lowest-level player(s) (B5).

**Fighting (B6-B9).** Your side is your level plus your items, steeds, hirelings, one-shots
and powers, plus your helper. The monsters' side is their levels plus enhancers and their
bonuses against you. You win only when strictly stronger (a Warrior, fighting or helping, wins
ties). Win and you
gain a level per monster and draw its treasures. You may ask one player for help and promise
treasures; a helper gains no level (an Elf gains one). Anyone may play one-shots, enhancers
and wandering monsters into any fight (B16). Lose and you roll a die per monster to run away:
5 or more escapes, otherwise its Bad Stuff hits you.

**Death (B10).** You lose your hand and everything in play, keep your level, race, class and
curses; the others loot your body. You come back as the next turn begins, and get fresh
cards at the start of your own next turn.

**Items (B11-B13).** One headgear, one armor, one footgear, two hands, one Big item (any for
a Dwarf). Items go on and off on your own turn outside combat. Sell items in sets worth 1000
gold or more for a level per 1000 (never the winning level); trade items in play with a
player who is not fighting. Over a limit, you discard, sell or give away an item at once.

**Races and classes (B14).** Elf +1 to run away; Dwarf carries any Big items and keeps 6
cards; Halfling's first sale of a turn counts its best item twice; Warrior berserks (+1 per
card, up to 3) and wins ties; Wizard pays cards after a failed run-away roll (+1 each) and may
charm a monster; Cleric turns the undead (+3 per card); Thief backstabs (-2) and steals small
items whenever no fight is on. With Half-Breed or Super Munchkin and one race or class, you
have its advantages and none of its disadvantages.

**Curses (B15).** Drawn face up, it hits you; from the hand, anyone, any time.

**Hirelings and steeds (H, S).** One hireling in play (played any time, even in a fight); it
can be sacrificed after a lost fight to escape every monster (H4). One steed (a Centaur may
have two); a steed's run-away bonus replaces your own (S6), and a steed drawn face up may be
fought as a monster of twice its bonus (S9).
"""

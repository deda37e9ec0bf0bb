"""Bots: policies that pick one of a player's legal actions."""

"""Simulations: many games between bots, in parallel or on Ray, and their report."""

"""Checking a built ship: the construction rules, the minimal repair, folders of ships, rule docs,
starter ships, the JSON Schemas, output formats and settings."""

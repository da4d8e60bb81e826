"""Layer 7, build: ``spb compile``, which writes every shipped ruleset's engines and reference into
generated/ and checks that folder for staleness."""

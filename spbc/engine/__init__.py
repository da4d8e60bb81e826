"""Layer 5, engine: the checked model lowered to the engine IR, emitted through Jinja2 as the Cython engine
and its pure-Python twin, and the backend that finds, builds and loads a ruleset's engine."""

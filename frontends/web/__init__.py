"""The game in a web browser (``spb serve``): pages and live updates drawn from the one Table's views."""

"""The mechanics, one package per ability kind; the registry that finds them is spbc.contract.mechanics."""

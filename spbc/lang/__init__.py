"""Layer 3, lang: the rules language. Lark grammar and parser, syntax tree, schema, checker, the checked
model, dumps, and loading a rules file with its includes. Lark is used here and nowhere else."""

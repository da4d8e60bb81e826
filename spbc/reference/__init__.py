"""Layer 6, reference: the checked model lowered to a document and emitted as the rules reference
(Markdown and HTML), and the card table."""

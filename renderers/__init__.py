"""Document and slide renderers: built in a later issue."""

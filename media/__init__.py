"""Media layer (frames, audio, speech): built in a later issue."""

"""The scenario environments of the NeurIPS 2026 EgoBench release (docs/egobench2/).

Warehouse and household are new; restaurant6 (several restaurants) takes the place of
the first release's order scenario; retail and the single-restaurant tools changed.
"""

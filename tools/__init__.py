"""Agent-callable tools: scenario environments, their registry and canonical state hash."""

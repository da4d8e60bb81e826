"""Layer 9, ai: computer players, which see only what their seat may see, and headless simulation."""

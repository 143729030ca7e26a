"""The shared rendering layer: paper and units, fonts, text fitting, marks and PDF writing.

Game packages draw through these helpers so that every sheet gets the same print truths:
exact millimetres, embedded font subsets, no silent clipping, atomic writes."""

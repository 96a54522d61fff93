"""citewise's own fetcher (SPEC 4.6): guarded HTTP, content reading, publication dates."""

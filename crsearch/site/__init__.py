"""The static website: pages, search data, JSON API, changes, offline, serving."""

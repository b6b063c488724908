"""Finding a reference's identifiers: the services' client, their records, the ranking."""

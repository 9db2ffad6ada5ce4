// Placeholder until the asset generator lands.

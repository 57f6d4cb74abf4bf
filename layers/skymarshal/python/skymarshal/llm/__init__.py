"""LLM provider choice, behaviour configuration (models, temperatures, prompt files) and prompts."""

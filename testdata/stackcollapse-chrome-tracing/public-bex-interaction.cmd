stackcollapse-chrome-tracing --thread-root public/bex-interaction.json

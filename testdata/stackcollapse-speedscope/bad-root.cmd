stackcollapse-speedscope --profile-root bad.speedscope.json

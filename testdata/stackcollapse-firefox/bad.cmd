stackcollapse-firefox bad.json

stackcollapse --detect *.json public/*.json

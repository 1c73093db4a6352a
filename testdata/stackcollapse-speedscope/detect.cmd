stackcollapse --detect *.json

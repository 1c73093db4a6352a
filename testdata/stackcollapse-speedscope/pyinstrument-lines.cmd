stackcollapse-speedscope --lines pyinstrument-pytorch.speedscope.json

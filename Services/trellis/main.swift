print("trellis: not yet")

def main(argv=None):
    from importlib import resources
    import happydayz
    print(happydayz.__file__)
    return 0

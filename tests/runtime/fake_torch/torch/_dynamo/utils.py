import collections

counters = collections.defaultdict(collections.Counter)

"""`amunre compare`: variants side by side over many seeded games, with error bars.

- `amunre.compare.collect`: the numbers of one game, from the events rule modules declare;
- `amunre.compare.jobs`: a job (variant, players, agents) a worker plays over a batch of seeds;
- `amunre.compare.executors`: where batches run: this process, local processes
  (`executors.processes`), or Dask (`executors.on_dask`);
- `amunre.compare.stats`: means, confidence intervals and paired tests;
- `amunre.compare.run`: seeds, batches and the table of results.
"""

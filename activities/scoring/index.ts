/** Activities of the scoring group (exported to the worker). */
export {};

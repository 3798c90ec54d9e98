/** Activities of the data group (exported to the worker). */
export {};

/** The colour of the j-th operation (0-based) in the usage chart, as a CSS colour. */
export function opColour (j: number): string

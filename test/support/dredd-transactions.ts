/** Dredd's names of the nine transactions of spec/openapi.yaml (one per documented response). */
export const ALL_TRANSACTIONS = [
  '/pets > List animals > 200 > application/json',
  '/pets > List animals > 400 > application/json',
  '/pets > List animals > 401 > application/json',
  '/pets > Add an animal > 201 > application/json',
  '/pets > Add an animal > 400 > application/json',
  '/pets > Add an animal > 401 > application/json',
  '/pets/{petId} > Get an animal > 200 > application/json',
  '/pets/{petId} > Get an animal > 401 > application/json',
  '/pets/{petId} > Get an animal > 404 > application/json',
] as const;

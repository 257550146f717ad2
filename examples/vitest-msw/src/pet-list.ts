/**
 * A small pet list, as an app would have it: the first pets of the Pet Store
 * interface, a form that adds one, and the interface's error message when a
 * call fails. Plain DOM, no framework.
 */
export interface PetApi {
  /** Where the Pet Store interface is, e.g. `https://api.example.test`. */
  baseUrl: string;
  apiKey: string;
}

interface Pet {
  id: number;
  name: string;
  status: string;
}

const TEMPLATE = `
  <h1>Pets</h1>
  <ul aria-label="pets"></ul>
  <form aria-label="new pet">
    <label>Name <input name="name" /></label>
    <button type="submit">Add pet</button>
  </form>
  <p role="alert"></p>`;

/** Renders the list into `root`, then loads it; resolves once the pets are shown (or the error). */
export async function mountPetList(root: HTMLElement, api: PetApi): Promise<void> {
  root.innerHTML = TEMPLATE;
  const list = root.querySelector('ul') as HTMLUListElement;
  const form = root.querySelector('form') as HTMLFormElement;
  const alert = root.querySelector('[role="alert"]') as HTMLParagraphElement;
  const call = async (path: string, init: RequestInit = {}): Promise<unknown> => {
    const headers = { authorization: `Bearer ${api.apiKey}`, 'content-type': 'application/json' };
    const response = await fetch(`${api.baseUrl}${path}`, { ...init, headers });
    const body = (await response.json()) as { message?: string };
    if (!response.ok) throw new Error(`Could not reach the pets (${response.status}): ${body.message}`);
    return body;
  };
  const show = (pet: Pet) => {
    const item = document.createElement('li');
    item.textContent = `${pet.name} (${pet.status})`;
    list.append(item);
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = (form.elements.namedItem('name') as HTMLInputElement).value;
    alert.textContent = '';
    call('/v1/pets', { method: 'POST', body: JSON.stringify({ name, categoryId: 1, status: 'available' }) })
      .then((pet) => show(pet as Pet))
      .catch((error: Error) => (alert.textContent = error.message));
  });
  try {
    for (const pet of (await call('/v1/pets?limit=5')) as Pet[]) show(pet);
  } catch (error) {
    alert.textContent = (error as Error).message;
  }
}

// Templates the server offers in the chooser after the Empty Function Canvas and the Example
// Function Template (spec 4 §2). They are starting points only: a function made from one is
// the customer's own code and is reviewed like any other.
import { createHash } from 'node:crypto';
import type { FunctionRecord } from '@parla/shared/schemas/functions';

const EPOCH = '2025-01-01T00:00:00.000Z';

const TEMPLATES: { id: string; name: string; code: string }[] = [
  {
    id: 'template-book-appointment',
    name: 'book_appointment.py',
    code: `def book_appointment(name: str, date: str, time: str) -> dict:
    """Book an appointment for a visitor.

    Args:
        name: The visitor's full name.
        date: The day, as YYYY-MM-DD.
        time: The time of day, as HH:MM (24-hour clock).

    Returns:
        A confirmation the avatar reads out.
    """
    if not name.strip():
        return {"booked": False, "message": "I need your name to book the appointment."}
    return {
        "booked": True,
        "message": f"{name}, you are booked on {date} at {time}. See you then!",
    }
`,
  },
  {
    id: 'template-opening-hours',
    name: 'opening_hours.py',
    code: `OPENING_HOURS = {
    "monday": "9:00-17:00",
    "tuesday": "9:00-17:00",
    "wednesday": "9:00-17:00",
    "thursday": "9:00-19:00",
    "friday": "9:00-17:00",
    "saturday": "10:00-14:00",
    "sunday": "closed",
}


def opening_hours(day: str) -> dict:
    """Tell the visitor when the shop is open on a given day.

    Args:
        day: A weekday name, for example "Saturday".
    """
    hours = OPENING_HOURS.get(day.strip().lower())
    if hours is None:
        return {"message": f"I do not know the day {day}."}
    return {"day": day, "hours": hours}
`,
  },
];

export function serverTemplates(): FunctionRecord[] {
  return TEMPLATES.map((t) => ({
    id: t.id,
    name: t.name,
    code: t.code,
    language: 'python',
    approvalStatus: 'Pending',
    template: true,
    createDate: EPOCH,
    lastUpdateDate: EPOCH,
    lastAdminUpdateDate: null,
    reviewReason: null,
    codeHash: createHash('sha256').update(t.code).digest('hex'),
  }));
}
